c     The driver of kernels.f, compiled without OpenMP and linked with
c     the OpenMP build of kernels.f as a suite's own driver is: it sets
c     the arrays for each vector length, calls the kernels, and owns
c     DUMMY (which kaiseki is not given) and CHECK (the printed rows).
      program driver
      integer ld, nmax
      parameter (ld = 64, nmax = 64)
      real a(2*nmax), b(nmax), c(nmax), d(nmax)
      real aa(ld,nmax), bb(ld,nmax), pk(nmax*(nmax+1)/2)
      integer n, k, ntimes
      do 100 k = 1, 3
         n = 4**k
         ntimes = 5
         call set(n, ld, a, b, c, d, aa, bb, pk)
         call ksum(ntimes, n, a, b)
         call kmax(ntimes, n, c)
         call set(n, ld, a, b, c, d, aa, bb, pk)
         call kinc(ntimes, n, 2, a, b)
         call set(n, ld, a, b, c, d, aa, bb, pk)
         call ktri(ntimes, ld, n, pk, bb)
         call set(n, ld, a, b, c, d, aa, bb, pk)
         call kmix(ntimes, n, a, b, c, d)
         call set(n, ld, a, b, c, d, aa, bb, pk)
         call knest(ntimes, ld, n, aa, bb, a)
  100 continue
      end

      subroutine set(n, ld, a, b, c, d, aa, bb, pk)
      integer n, ld, i, j
      real a(*), b(*), c(*), d(*), aa(ld,*), bb(ld,*), pk(*)
      do 10 i = 1, 2*n
         a(i) = mod(i, 7)
   10 continue
      do 20 i = 1, n
         b(i) = mod(i*3, 5)
         c(i) = mod(i*5, 11) - 5
         d(i) = mod(i, 3) - 1
   20 continue
      do 30 j = 1, n
         do 30 i = 1, ld
            aa(i,j) = mod(i + j, 4)
            bb(i,j) = mod(i * j, 3)
   30 continue
      do 40 i = 1, n*(n+1)/2
         pk(i) = 0.
   40 continue
      end

c     What a timing loop calls after each repetition: nothing a compiler
c     may see through.
      subroutine dummy(n, x, y, s)
      integer n
      real x(*), y(*), s
      end

      subroutine check(chk, name)
      real chk
      character*5 name
      print '(1x, a5, es14.6)', name, chk
      end
