program heat
  use heat_mod, only: init, sweep, u, total, nsteps => steps, n
  implicit none
  integer :: it, i, j
  call init()
  do it = 1, 5
    call sweep()
  end do
  total = 0
  do j = 1, n
    do i = 1, n
      total = total + u(i, j)
    end do
  end do
  call report(nsteps)
contains
  subroutine report(k)
    integer, intent(in) :: k
    print '(A, I3, F14.6)', 'steps, total:', k, total
    print '(A, F14.6)', 'corner:', corner()
  end subroutine report
  real(8) function corner()
    corner = u(2, 2) + u(it - 4, 3)
  end function corner
end program heat
