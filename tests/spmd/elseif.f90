! Li & Harada's conditional redundancy (Fig. 1, s9-s15) in the branches
! of an ELSE IF chain: a column of A fetched in one branch makes a later
! read of part of it redundant on the paths through that branch only.
! N (read) picks the branch: 7 the IF, 100 and 99 the ELSE IFs, else ELSE.
PROGRAM chain
  INTEGER :: N, I, J
  REAL :: A(100,100)
  REAL :: C(100), E(100), F(100)
!HPF$ TEMPLATE VPROCS(100,100)
!HPF$ ALIGN (I,J) WITH VPROCS(I,J) :: A
!HPF$ ALIGN (I) WITH VPROCS(I,1) :: C, E, F
!HPF$ DISTRIBUTE VPROCS(BLOCK,BLOCK)
  READ (*,*) N
  DO I = 1, 100
    DO J = 1, 100
      A(I,J) = REAL(I + 2*J)
    ENDDO
    C(I) = 0.0
    E(I) = 0.0
    F(I) = 0.0
  ENDDO
  IF (N .LT. 50) THEN
    DO I = 2, 100
      F(I) = 1.0 * I
    ENDDO
  ELSE IF (N .EQ. 100) THEN
    DO I = 2, 100
      C(I) = A(100, I) * 0.5
    ENDDO
  ELSE IF (N .EQ. 99) THEN
    DO I = 2, 100
      F(I) = A(1, I)
    ENDDO
  ELSE
    DO I = 2, 100
      F(I) = A(2, I) + 1.0
    ENDDO
  ENDIF
  DO I = 30, 50
    E(I) = A(100, I)
  ENDDO
  DO I = 51, 70
    C(I) = A(1, I) + E(I)
  ENDDO
  DO I = 60, 70
    F(I) = F(I) + A(2, I)
  ENDDO
  PRINT *, SUM(C), SUM(E), SUM(F)
END PROGRAM chain
